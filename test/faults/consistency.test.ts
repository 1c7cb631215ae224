// Fault suite, area "consistency": the quick probes (faults/areas/consistency.ts) as tests.
import { areaTests } from './area-tests.js';

areaTests('consistency');
