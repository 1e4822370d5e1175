/** Staff class page texts (issue 41): the class form of a student-codes school. */
export const CLASS_PAGE_MSG = {
  /** A student-codes school's class form offers no class password: each family opens it with their child's code. */
  noClassPassword: "Families open this class with their child's private code, so it has no class password.",
  /** A class's photos in the class lists and the upload's class picker. */
  photoCount: (count: number) => `${count} ${count === 1 ? 'photo' : 'photos'}`,
} as const;
