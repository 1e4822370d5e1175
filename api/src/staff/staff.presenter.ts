import type { StaffUser } from '../../contract/auth';
import type { StaffRecord } from './staff.repository';

/** A staff account as the API shows it: never the password hash. */
export function presentStaff(staff: StaffRecord): StaffUser {
  return {
    id: staff.id,
    email: staff.email,
    firstName: staff.firstName,
    lastName: staff.lastName,
    role: staff.role,
    createdAt: staff.createdAt,
  };
}
