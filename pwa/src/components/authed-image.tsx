import { useEffect, useRef, useState, type ImgHTMLAttributes } from 'react';
import { getStaffToken } from '../lib/storage';

type ImageProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> & { src: string };

/**
 * An image from an endpoint that checks who is asking, for a staff session. <img> cannot send the
 * bearer token and staff have no gallery cookie, so the image is fetched with the token once it
 * scrolls into view and shown from an object URL (released when it leaves the page).
 */
export function AuthedImage({ src, loading = 'lazy', ...rest }: ImageProps) {
  const ref = useRef<HTMLImageElement>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [visible, setVisible] = useState(typeof IntersectionObserver === 'undefined' || loading === 'eager');

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

  return <img ref={ref} src={url ?? undefined} loading={loading} {...rest} />;
}

/**
 * A gallery image: a plain <img> for parents (the gallery cookie travels with it, and the service
 * worker may cache it), fetched with the token in a staff session, so staff viewing a school see
 * every photo.
 */
export function GalleryImage({ staff, ...props }: ImageProps & { staff: boolean }) {
  return staff ? <AuthedImage {...props} /> : <img {...props} />;
}
