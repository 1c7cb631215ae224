// Fault suite, area "inputs": the quick probes (faults/areas/inputs.ts) as tests.
import { areaTests } from './area-tests.js';

areaTests('inputs');
