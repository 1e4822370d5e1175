import { SLUG_PATTERN } from '../../contract/schools';
import type { GalleryPageData } from '../../contract/gallery-page';
import type { Viewer } from '../http/access';
import type { Deps } from '../deps';
import { AppError } from '../http/errors';
import { createAlbumService } from '../albums/albums.service';
import { presentAlbums } from '../albums/albums.presenter';
import { createPhotoService } from '../photos/photos.service';
import { createPriceListService } from '../price-lists/price-lists.service';
import { createStudentRepository } from '../students/students.repository';
import { createVisibility, schoolUnlocked, visibleClasses } from '../students/visibility';
import { createSchoolService } from './schools.service';
import { presentSchoolBySlug } from './schools.presenter';

/**
 * The first screen of a school gallery (/school/{slug}, ?class=id), for the page the server sends:
 * the same answers the API would give this viewer to GET the school, its classes, its price lists
 * and the named class's photos, through the same services and the same visibility rule. Only for a
 * viewer whose grant opens the school: anyone else gets null and the page without data, exactly
 * as before (the app then asks the API, which refuses as usual). A class the viewer may not see
 * (protected, another school's, a child's code missing) is left out, never an error.
 */
export function createGalleryPageService(deps: Deps) {
  const schools = createSchoolService(deps);
  const albums = createAlbumService(deps);
  const photos = createPhotoService(deps);
  const priceLists = createPriceListService(deps);
  const visibility = createVisibility(createStudentRepository(deps.knex));

  async function classPhotos(viewer: Viewer, schoolId: number, shown: readonly { id: number }[], classId: number | null): Promise<GalleryPageData['photos']> {
    if (classId === null || !shown.some((album) => album.id === classId)) return null;
    try {
      const album = await photos.getAlbum(classId);
      if (album.schoolId !== schoolId) return null;
      const access = await visibility.requireClass(viewer, album);
      return { albumId: album.id, list: await photos.listAlbumPhotos(album.id, access) };
    } catch (err) {
      // Refused or gone: the app asks for it and shows the API's own answer.
      if (err instanceof AppError && err.status < 500) return null;
      throw err;
    }
  }

  return {
    async forViewer(slug: string, classId: number | null, viewer: Viewer): Promise<GalleryPageData | null> {
      const wanted = slug.toLowerCase();
      if (!SLUG_PATTERN.test(wanted)) return null;
      const school = await schools.findBySlug(wanted);
      if (!school) return null;
      const granted = await visibility.grantedStudents(viewer);
      if (!schoolUnlocked(viewer, school, granted)) return null;
      const shown = visibleClasses(viewer, school, await albums.listForSchool(school.id), granted);
      if (!shown) return null;
      const [lists, classList] = await Promise.all([priceLists.forSchool(school.id), classPhotos(viewer, school.id, shown, classId)]);
      return {
        school: presentSchoolBySlug(school, true),
        albums: presentAlbums(shown),
        priceLists: lists,
        photos: classList,
      };
    },
  };
}
export type GalleryPageService = ReturnType<typeof createGalleryPageService>;
