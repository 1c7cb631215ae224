// Fault suite, area "hostile": the quick probes (faults/areas/hostile.ts) as tests.
import { areaTests } from './area-tests.js';

areaTests('hostile');
