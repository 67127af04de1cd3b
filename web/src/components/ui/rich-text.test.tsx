import { render } from '@testing-library/react';
import { RichText } from './rich-text';

describe('RichText', () => {
  it('keeps formatting and safe links, drops scripts, handlers and unsafe links', () => {
    const { container } = render(
      <RichText
        html={`<h2>Terms</h2><p onclick="alert(1)" style="color:red">Be <b>fair</b> &amp; <a href="https://x.test/t">read</a> <a href="javascript:alert(1)">this</a></p><script>alert(2)</script><img src=x onerror="alert(3)"><ul><li>one</li></ul>`}
      />,
    );
    expect(container.innerHTML).toBe(
      '<div><p><strong>Terms</strong></p><p>Be <b>fair</b> &amp; <a href="https://x.test/t" target="_blank" rel="noreferrer">read</a> this</p><ul><li>one</li></ul></div>',
    );
  });

  it('shows plain text as it is', () => {
    const { container } = render(<RichText html="Just text <3" />);
    expect(container.textContent).toBe('Just text <3');
  });
});
