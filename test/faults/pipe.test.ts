// Fault suite, area "pipe": the quick probes (faults/areas/pipe.ts) as tests.
import { areaTests } from './area-tests.js';

areaTests('pipe');
