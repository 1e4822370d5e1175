import type { GalleryPageData } from '../../contract/gallery-page';
import type { Viewer } from '../http/access';
import type { Deps } from '../deps';
import { AppError } from '../http/errors';
import { createPhotoService } from '../photos/photos.service';
import { createPriceListService } from '../price-lists/price-lists.service';
import { createSchoolService } from './schools.service';

/**
 * The first screen of a school gallery (/school/{slug}, ?class=id), for the page the server sends:
 * the same answers the API would give this viewer to GET the school, its classes, its price lists
 * and the named class's photos, through the same services and the same visibility rule. Only for a
 * viewer whose grant opens the school: anyone else gets null and the page without data, exactly
 * as before (the app then asks the API, which refuses as usual). A class the viewer may not see
 * (protected, another school's, a child's code missing) is left out, never an error.
 */
export function createGalleryPageService(
  deps: Deps,
  { schools, photos, priceLists } = { schools: createSchoolService(deps), photos: createPhotoService(deps), priceLists: createPriceListService(deps) },
) {

  async function albumPhotos(viewer: Viewer, schoolId: number, shown: readonly { id: number }[], albumId: number | null): Promise<GalleryPageData['photos']> {
    if (albumId === null || !shown.some((album) => album.id === albumId)) return null;
    try {
      return { albumId, list: await photos.listForViewer(albumId, viewer, schoolId) };
    } catch (err) {
      // Refused or gone: the app asks for it and shows the API's own answer.
      if (err instanceof AppError && err.status < 500) return null;
      throw err;
    }
  }

  return {
    async forViewer(slug: string, albumId: number | null, viewer: Viewer): Promise<GalleryPageData | null> {
      const gallery = await schools.galleryFor(slug, viewer);
      if (!gallery) return null;
      const [lists, albumPhotoList] = await Promise.all([priceLists.forSchool(gallery.school.id), albumPhotos(viewer, gallery.school.id, gallery.albums, albumId)]);
      return {
        school: gallery.school,
        albums: gallery.albums,
        priceLists: lists,
        photos: albumPhotoList,
      };
    },
  };
}
export type GalleryPageService = ReturnType<typeof createGalleryPageService>;
