// Fault suite, area "hostile": the quick probes (bench/faults/areas/hostile.ts) as tests.
import { areaTests } from './area-tests.js';

areaTests('hostile');
