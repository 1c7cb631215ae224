// Fault suite, area "cachefs": the quick probes (faults/areas/cachefs.ts) as tests.
import { areaTests } from './area-tests.js';

areaTests('cachefs');
