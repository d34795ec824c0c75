// The script of the test page test/browser/ofrep-web-provider.test.ts serves: OpenFeature's web SDK
// and its OFREP provider from node_modules, bundled at test time (no CDN), handed to the test.
import { OpenFeature, ProviderEvents } from '@openfeature/web-sdk';
import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';

Object.assign(window, { ofrep: { OpenFeature, OFREPWebProvider, ProviderEvents } });
