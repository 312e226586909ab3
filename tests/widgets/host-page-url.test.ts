import { describe, expect, test } from 'vitest';
import { widgetHostPageUrl } from '../../src/contract/widget-host.js';

/** docs/contracts.md section 6: the host page URL a live run builds from `--widget-host-url`. */
describe('the widget host page URL', () => {
  test('{postId} is replaced by the post, escaped, and the session goes in the query', () => {
    expect(
      widgetHostPageUrl('https://platform.example/widgets/{postId}/host', 'post/1 a', { user: 'alice', content: 'catalog', bridge: 1, detached: true }),
    ).toBe('https://platform.example/widgets/post%2F1%20a/host?user=alice&content=catalog&bridge=1&detached=1');
  });

  test('a template with its own query keeps it; no session adds nothing', () => {
    expect(widgetHostPageUrl('http://127.0.0.1:8787/host?post={postId}&theme=dark', 'p1')).toBe('http://127.0.0.1:8787/host?post=p1&theme=dark');
  });
});
