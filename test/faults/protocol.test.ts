// Fault suite, area "protocol": the quick probes (faults/areas/protocol.ts) as tests.
import { areaTests } from './area-tests.js';

areaTests('protocol');
