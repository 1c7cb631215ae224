// Fault suite, area "service": the quick probes (faults/areas/service.ts) as tests.
import { areaTests } from './area-tests.js';

areaTests('service');
