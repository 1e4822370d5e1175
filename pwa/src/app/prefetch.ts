/**
 * A parent arriving on a link to a school gallery waits for the gallery's data one request after
 * another (school, then its classes and products, then the class's photos). These start here, as
 * soon as the entry runs, instead of after the gallery screen's code has loaded and rendered: the
 * screen then finds them in the query cache. Same queries, same credentials as the screen's own.
 */
import { matchPath } from 'react-router-dom';
import type { QueryClient } from '@tanstack/react-query';
import { schoolBySlugQuery } from '../features/schools/api';
import { albumsQuery, photosQuery, priceListsQuery } from '../features/gallery/api';
import { paths } from '../lib/paths';
import { paymentMethodsQuery } from '../lib/payment-methods';

export function prefetchRouteData(queryClient: QueryClient, location: Pick<Location, 'pathname' | 'search'>): void {
  // How-it-works names the enabled payment methods once hydrated: asked for while it hydrates.
  if (location.pathname === paths.howItWorks) void queryClient.prefetchQuery(paymentMethodsQuery());
  const match = matchPath(paths.schoolPattern, location.pathname);
  const slug = match?.params.slug;
  if (!slug) return;
  const school = schoolBySlugQuery(slug);
  void queryClient.prefetchQuery(school).then(() => {
    const found = queryClient.getQueryData(school.queryKey);
    if (!found?.unlocked) return;
    void queryClient.prefetchQuery(albumsQuery(found.id));
    void queryClient.prefetchQuery(priceListsQuery(found.id));
  });
  // A class named in the link: its photos are asked for beside the rest. A protected class not yet
  // unlocked is refused (403) and the screen asks for its password as usual.
  const classId = Number(new URLSearchParams(location.search).get('class'));
  if (Number.isInteger(classId) && classId > 0) void queryClient.prefetchQuery(photosQuery(classId));
}
