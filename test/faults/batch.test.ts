// Fault suite, area "batch": the quick probes (faults/areas/batch.ts) as tests.
import { areaTests } from './area-tests.js';

areaTests('batch');
