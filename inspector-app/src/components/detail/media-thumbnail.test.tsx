// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { imageTypeOf, MediaThumbnail } from './MediaThumbnail';
import type { TreeNode } from '../../worker/api';

afterEach(cleanup);

function fakeUrls() {
  const made: Blob[] = [];
  const revoked: string[] = [];
  return {
    made,
    revoked,
    createObjectURL: (b: Blob | MediaSource) => {
      made.push(b as Blob);
      return `blob:test/${made.length}`;
    },
    revokeObjectURL: (u: string) => void revoked.push(u),
  };
}

describe('the media thumbnail', () => {
  it('draws the frame bytes as a blob: image with its summary, and revokes the URL when it goes', () => {
    const urls = fakeUrls();
    const bytes = Uint8Array.of(0x89, 0x50, 0x4e, 0x47);
    const { unmount } = render(
      <MediaThumbnail type="image/png" bytes={bytes} summary="image/png 320×200, 1.2 KiB" urls={urls} />,
    );
    const img = screen.getByRole('img') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('blob:test/1');
    expect(img.alt).toBe('image/png 320×200, 1.2 KiB');
    expect(urls.made[0].type).toBe('image/png');
    expect(urls.made[0].size).toBe(4);
    unmount();
    expect(urls.revoked).toEqual(['blob:test/1']);
  });

  it('is for image roots only', () => {
    const root = { depth: 0, head: 'image/png' } as TreeNode;
    expect(imageTypeOf(root)).toBe('image/png');
    expect(imageTypeOf({ ...root, head: 'application/pdf' })).toBeNull();
    expect(imageTypeOf({ ...root, depth: 1 })).toBeNull();
  });
});
