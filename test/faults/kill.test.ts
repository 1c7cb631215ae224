// Fault suite, area "kill": the quick probes (bench/faults/areas/kill.ts) as tests.
import { areaTests } from './area-tests.js';

areaTests('kill');
