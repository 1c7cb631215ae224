// Fault suite, area "kill": the quick probes (faults/areas/kill.ts) as tests.
import { areaTests } from './area-tests.js';

areaTests('kill');
