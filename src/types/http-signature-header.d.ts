/** The part of @digitalbazaar/http-signature-header (draft-cavage-http-signatures) the project uses; it ships no types. */
declare module "@digitalbazaar/http-signature-header" {
  interface RequestOptions {
    url: string;
    method: string;
    headers: Record<string, string>;
  }
  export function createSignatureString(options: {
    includeHeaders: string[];
    requestOptions: RequestOptions;
  }): string;
  export function parseRequest(
    request: RequestOptions,
    options: {
      headers?: string[];
      authorizationHeaderName?: string;
      clockSkew?: number;
      now?: number;
    },
  ): { keyId: string; signingString: string; params: Record<string, unknown> };
}
