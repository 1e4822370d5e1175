/**
 * A school gallery's first screen without waiting for the API: the server puts the answers it would
 * give this viewer (school, classes, price lists, the open class's photos) into the page, and they
 * go into the query cache before the first render, as if just fetched. And what a first visit showed
 * before the service worker took over is handed to it once it does, so the class opens offline
 * however soon the connection drops.
 */
import { matchPath } from 'react-router-dom';
import type { Query, QueryClient } from '@tanstack/react-query';
import { GALLERY_PAGE_DATA_ID, type GalleryPageData } from '@contract/gallery-page';
import { schoolBySlugQuery } from '../features/schools/api';
import { albumsQuery, galleryAnswerUrl, photosQuery, priceListsQuery } from '../features/gallery/api';
import { getStaffToken } from '../lib/storage';
import { keepGalleryAnswers, keepShownImages } from '../lib/offline-caches';
import { paths } from '../lib/paths';

/**
 * Seeds the query cache from the page's gallery data, when the page has any and belongs to this
 * address. A staff session sees its own views (every class, every photo), so it asks the API.
 */
export function seedGalleryPage(client: QueryClient, location: Pick<Location, 'pathname'>): void {
  const element = document.getElementById(GALLERY_PAGE_DATA_ID);
  if (!element?.textContent) return;
  element.remove();
  const slug = matchPath(paths.schoolPattern, location.pathname)?.params.slug;
  if (!slug || getStaffToken()) return;
  let data: GalleryPageData;
  try {
    data = JSON.parse(element.textContent) as GalleryPageData;
  } catch {
    return;
  }
  if (data.school.slug !== slug.toLowerCase()) return;
  client.setQueryData(schoolBySlugQuery(slug).queryKey, data.school);
  client.setQueryData(albumsQuery(data.school.id).queryKey, data.albums);
  client.setQueryData(priceListsQuery(data.school.id).queryKey, data.priceLists);
  if (data.photos) client.setQueryData(photosQuery(data.photos.albumId).queryKey, data.photos.list);
}

/** How long after the worker takes over an answer or image the page asked for before then may still arrive. */
const HANDOVER_WINDOW_MS = 60_000;

/**
 * The service worker has just taken over this page for the first time: the gallery answers and
 * thumbnails the page got before then never passed through it. The answers are written into its
 * cache from the query cache; the thumbnails are asked for again through it from the browser's
 * HTTP cache (no bytes on the wire). Both may still be on their way when the worker takes over
 * (on a slow phone it can do so before the grid is even drawn), so what arrives in the next minute
 * is kept too. Never for a staff session, whose views are never kept.
 */
export async function keepShownGallery(client: QueryClient): Promise<void> {
  if (getStaffToken()) return;
  await Promise.all([keepAnswersFetchedBeforeControl(client), keepImagesFetchedBeforeControl()]);
}

/**
 * The gallery answers in the query cache, by their addresses. Answers seeded from the page have no
 * query options yet (no observer has mounted), so the address is what marks a gallery answer.
 */
function keepAnswersFetchedBeforeControl(client: QueryClient): Promise<void> {
  const cache = client.getQueryCache();
  const kept = (query: Query) => {
    const url = galleryAnswerUrl(query.queryKey);
    return url && query.state.status === 'success' ? [{ url, body: query.state.data }] : [];
  };
  const arriving = new Set(cache.findAll({ fetchStatus: 'fetching' }).map((query) => query.queryHash));
  const keeping = [keepGalleryAnswers(cache.getAll().flatMap(kept))];
  const unsubscribe = cache.subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || !arriving.delete(event.query.queryHash)) return;
    keeping.push(keepGalleryAnswers(kept(event.query)));
  });
  return afterHandoverWindow(() => {
    unsubscribe();
    return Promise.all(keeping);
  });
}

/**
 * Which images the page got before the worker was in control is read from the browser's record of
 * what it fetched, not from the grid: the first row came from the page head's preloads, possibly
 * before the grid was drawn, and some images may still be on their way (their record appears when
 * they arrive). A record with no worker time is a fetch the worker never saw.
 */
function keepImagesFetchedBeforeControl(): Promise<void> {
  if (typeof PerformanceObserver === 'undefined') return Promise.resolve();
  const asked = new Set<string>();
  const keeping: Promise<void>[] = [];
  const observer = new PerformanceObserver((list) => {
    const urls = list
      .getEntriesByType('resource')
      .filter((entry): entry is PerformanceResourceTiming => entry instanceof PerformanceResourceTiming)
      .filter((entry) => entry.workerStart === 0 && (entry.responseStatus === 0 || entry.responseStatus === 200) && !asked.has(entry.name))
      .map((entry) => entry.name);
    urls.forEach((url) => asked.add(url));
    if (urls.length > 0) keeping.push(keepShownImages(urls));
  });
  observer.observe({ type: 'resource', buffered: true });
  return afterHandoverWindow(() => {
    observer.disconnect();
    return Promise.all(keeping);
  });
}

function afterHandoverWindow(finish: () => Promise<unknown>): Promise<void> {
  return new Promise((resolve, reject) => setTimeout(() => void finish().then(() => resolve(), reject), HANDOVER_WINDOW_MS));
}
