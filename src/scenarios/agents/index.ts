/** The agent scenarios as vectors/ ships them: access control (5.4) and SDK tokens (5.5), each with its runner. */
export { accessVectors, runAccessCase, type AccessVectors } from './access-vectors.js';
export { sdkTokenVectors, runSdkConfigCase, runSdkTokenCase, type SdkTokenVectors } from './sdk-token-vectors.js';
