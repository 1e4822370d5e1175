import type { AlbumSummary, PublicSchool, SchoolBySlug, StaffSchool } from '../../contract/schools';
import type { SchoolRecord } from './schools.repository';

export function presentPublicSchool(school: Pick<SchoolRecord, 'id' | 'name' | 'slug'>): PublicSchool {
  return { id: school.id, name: school.name, slug: school.slug };
}

export function presentSchoolBySlug(school: SchoolRecord, unlocked: boolean): SchoolBySlug {
  return {
    id: school.id,
    name: school.name,
    slug: school.slug,
    closingDate: school.closingDate,
    priceListId: school.priceListId,
    contactEmail: school.contactEmail,
    accessMode: school.accessMode,
    unlocked,
  };
}

export function presentStaffSchool(school: SchoolRecord, albums: AlbumSummary[]): StaffSchool {
  return {
    id: school.id,
    name: school.name,
    slug: school.slug,
    contactEmail: school.contactEmail,
    contactPhone: school.contactPhone,
    address: school.address,
    closingDate: school.closingDate,
    pictureDay: school.pictureDay,
    priceListId: school.priceListId,
    priceListName: school.priceListName,
    accessMode: school.accessMode,
    hasPassword: school.hasPassword,
    albums,
    createdAt: school.createdAt,
  };
}
