// Fault suite, area "concurrency": the quick probes (faults/areas/concurrency.ts) as tests.
import { areaTests } from './area-tests.js';

areaTests('concurrency');
