import { agentErrors } from './agent-errors.ts';

/** IPA's image_download_connection_timeout is 60 s per connection attempt. */
const CONNECT_TIMEOUT_MS = 60_000;

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}

/**
 * Starts a download the way IPA's _download_with_proxy does: anything but 200 is an
 * error, and a 4xx is fatal (retrying cannot help). `subject` names the download in errors.
 */
export async function openDownload(url: string, subject: string, options: { authorization?: string | undefined } = {}): Promise<Response> {
  let response: Response;
  try {
    const headers = options.authorization === undefined ? undefined : { authorization: options.authorization };
    response = await fetch(url, { signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS), ...(headers ? { headers } : {}) });
  } catch (error) {
    throw agentErrors.imageDownload(subject, `Unable to connect to ${url}: ${describeCause(error)}`);
  }
  if (response.status !== 200) {
    const body = await response.text().catch(() => '');
    const headers = JSON.stringify(Object.fromEntries(response.headers.entries()));
    const reason =
      `Received status code ${response.status} from ${url}, expected 200. ` +
      `Response body: ${body} Response headers: ${headers}`;
    throw agentErrors.imageDownload(subject, reason, { fatal: response.status < 500 });
  }
  return response;
}

export async function downloadText(url: string, subject: string): Promise<string> {
  const response = await openDownload(url, subject);
  return response.text();
}
