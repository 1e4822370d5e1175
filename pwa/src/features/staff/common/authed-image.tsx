import { useEffect, useRef, useState } from 'react';
import { getStaffToken } from '../../../lib/storage';

/**
 * A staff thumbnail. <img> cannot send the bearer token and staff have no gallery cookie, so the
 * image is fetched with the token once it scrolls into view and shown from an object URL.
 */
export function AuthedImage({ src, alt, width, height, className }: { src: string; alt: string; width?: number; height?: number; className?: string }) {
  const ref = useRef<HTMLImageElement>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [visible, setVisible] = useState(typeof IntersectionObserver === 'undefined');

  useEffect(() => {
    const node = ref.current;
    if (visible || !node) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setVisible(true);
    }, { rootMargin: '200px' });
    observer.observe(node);
    return () => observer.disconnect();
  }, [visible]);

  useEffect(() => {
    if (!visible) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    const token = getStaffToken();
    fetch(src, { headers: token ? { Authorization: `Bearer ${token}` } : {}, credentials: 'include', signal: controller.signal })
      .then((response) => (response.ok ? response.blob() : null))
      .then((blob) => {
        if (!blob) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch(() => undefined);
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [src, visible]);

  return <img ref={ref} src={url ?? undefined} alt={alt} width={width} height={height} className={className} loading="lazy" />;
}
