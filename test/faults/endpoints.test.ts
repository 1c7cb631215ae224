// Fault suite, area "endpoints": the quick probes (faults/areas/endpoints.ts) as tests.
import { areaTests } from './area-tests.js';

areaTests('endpoints');
