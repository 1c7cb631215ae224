// Fault suite, area "cache": the quick probes (faults/areas/cache.ts) as tests.
import { areaTests } from './area-tests.js';

areaTests('cache');
