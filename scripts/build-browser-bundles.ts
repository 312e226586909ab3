/** `npm run build`'s second step: the browser bundles under src/widgets/browser/generated/ (a build output, not committed). */
import { writeBrowserBundles } from './browser-bundles.js';

for (const line of await writeBrowserBundles()) console.log(line);
