import { useEffect, useState } from 'react';
import type { PostFormat } from './preview.ts';

type Render = (body: string, format: PostFormat) => string;

// The hub's Markdown and BBCode renderers are a good part of the UI's code: they load the first
// time a preview is opened, not with the stream.
let loading: Promise<Render> | undefined;

/** The preview's renderer once `wanted` and loaded; `failed` when it could not be loaded. */
export function usePreviewRenderer(wanted: boolean): { render?: Render; failed: boolean } {
  const [render, setRender] = useState<Render>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!wanted || render) return;
    let live = true;
    loading ??= import('./preview.ts').then((m) => m.previewHtml);
    loading.then(
      (r) => live && setRender(() => r),
      () => {
        loading = undefined;
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [wanted, render]);
  return { render, failed };
}
