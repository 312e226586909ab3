import { reading } from './record.js';

/** Points that hold across sections: open bodies, the deployment's own names, values the spec does not give. */
export const COMMON_READINGS = {
  openBodies: reading('READING-OPEN-JSON-BODIES', ['2.6', '7.2', '7.3', '7.4'], 'Members beyond those the spec names in a JSON body', {
    text: '2.6 and 7.3 list the members of the error bodies ("Endpoint scope errors: object { error: { code: string, message: string } }"; "Body: error (Unauthorized), error_code, error_description"; "503 bodies carry a retry object with sameCredential … and, when true, credentialHeader") without saying that no other member may appear; RFC 9457 problem details may carry extension members.',
    accepted: 'Every member the spec names, with the value it gives; any further member, anywhere.',
    reference: 'Writes the named members only (plus the problem fields RFC 9457 defines on a 402).',
  }),
  serviceName: reading('READING-SERVICE-NAME', ['7.3', '7.4', '5.2'], "A deployment's own name where the spec writes Service", {
    text: 'Line 3: "Header names and problem type addresses that carry the platform\'s own name are given with the neutral word Service in that place"; 7.3: "WWW-Authenticate: Bearer realm=service"; 7.4 writes Service-Terms-Version, Service-Terms-Accepted, Service-Payment-Methods and Service-Purchase, 5.2 X-Service-Owner-Key.',
    standard:
      'RFC 9110 section 5.1: field names are case-insensitive. Section 11.5 makes the realm a case-sensitive string, but the spec writes Service capitalised in the header names and lower case in the realm, so the case of a name in the realm is not fixed by the text.',
    accepted:
      "The deployment's name (run --service-name NAME) in place of Service in each of those header names, in any case, and as the realm compared case-insensitively (realm=Acme or realm=acme for Acme; realm=service or realm=Service for the spec's own word). Without --service-name the spec's own names are expected; a check that finds the header under another name says which --service-name would match.",
    reference:
      'The spec\'s own names; serve --service-name NAME writes NAME lower case in their place (acme-terms-version, x-acme-owner-key, realm="acme") and reads its requests, and the headers their signatures cover, under those names.',
  }),
  unpublishedValues: reading('READING-UNPUBLISHED-VALUES', ['4.4', '4.5', '4.3', '6', '8'], 'Values and shapes the spec does not give', {
    text: 'Section 8: "Numeric values of the bridge rate window, KV quota caps, live-attach cap, handler time budget, ownerless balance cap and all daily purchase caps: not shown"; 4.4 publish bodies, 4.3 the token endpoint\'s answer and 6 other socket frames: "not shown"; 4.5 gives the agent slug only as <prefix>-<userId6>-<bundleSlug>.',
    accepted: 'Whatever a deployment chooses: no check judges these values or shapes.',
    reference:
      "Configurable caps; slug prefix widget, userId6 the first six characters of the user id, the bundle slug from the manifest name (src/spec/publish.ts); a tool exposed over HTTP at POST /tools/<name>; publish refusals in the 2.6 shape; RFC 6749 answers at POST /auth/token; UAMP's response.create starts a turn.",
  }),
};
