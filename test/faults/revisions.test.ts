// Fault suite, area "revisions": the quick probes (faults/areas/revisions.ts) as tests.
import { areaTests } from './area-tests.js';

areaTests('revisions');
