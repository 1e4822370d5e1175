/** Price lists: list, and create/update as a multipart form, delete. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { HARDENING_MSG } from '@contract/messages';
import type { PriceList } from '@contract/price-lists';
import type { ProductKind } from '@contract/constants';
import { apiRequest, errorMessage } from '../../../lib/api-client';
import { staffKeys } from './keys';

export interface EditorRow {
  key: string;
  name: string;
  description: string;
  price: string;
  /** A new example image chosen in the editor. */
  image: File | null;
  /** The stored image kept from the list being edited. */
  existingImagePath: string;
  /** Print (goes to the lab) or digital (a download). */
  kind: ProductKind;
  /** A print's size ("10x15 cm"), or blank. */
  size: string;
}

/** One content row of a package: a product row of the editor (by its key) and how many. */
export interface EditorContent {
  key: string;
  /** The EditorRow's key, or '' while none is chosen. */
  productKey: string;
  quantity: string;
}

export interface EditorPackage {
  key: string;
  name: string;
  description: string;
  price: string;
  /** How many different photos may fill it; blank: one per content row. */
  maxPoses: string;
  contents: EditorContent[];
}

/** The family discount as edited; `enabled` false sends none. */
export interface EditorSibling {
  enabled: boolean;
  percent: string;
  maxChildren: string;
}

export interface PriceListDraft {
  name: string;
  description: string;
  rows: EditorRow[];
  packages: EditorPackage[];
  sibling: EditorSibling;
}

/** The fixed failure text, then the server's reason when it gave one (which field, which rule). */
export function priceListFailure(action: keyof typeof HARDENING_MSG.priceListFailed, err: unknown): string {
  const reason = errorMessage(err, '');
  return reason ? `${HARDENING_MSG.priceListFailed[action]}: ${reason}` : HARDENING_MSG.priceListFailed[action];
}

/** Rows without a name or a price are dropped. */
export const completeRows = (rows: readonly EditorRow[]) => rows.filter((row) => row.name.trim() !== '' && row.price.trim() !== '');

/** A package with nothing typed in it is left out. */
const blankPackage = (pkg: EditorPackage) => pkg.name.trim() === '' && pkg.price.trim() === '' && pkg.contents.every((content) => content.productKey === '');

/**
 * The packages as the API reads them (docs/packages-and-coupons.md, "Packages"): each content row
 * names its product by the product row's name, so a product added in the same edit can be used.
 */
export function packagesPayload(draft: Pick<PriceListDraft, 'rows' | 'packages'>) {
  const names = new Map(draft.rows.map((row) => [row.key, row.name.trim()]));
  return draft.packages
    .filter((pkg) => !blankPackage(pkg))
    .map((pkg) => ({
      name: pkg.name.trim(),
      description: pkg.description.trim(),
      price: pkg.price.trim(),
      maxPoses: pkg.maxPoses.trim() === '' ? null : pkg.maxPoses.trim(),
      items: pkg.contents.map((content) => ({ productName: names.get(content.productKey) ?? '', quantity: content.quantity.trim() })),
    }));
}

/** The first package (by name, or its number) with a content row lacking a product, or null. */
export function packageMissingProduct(draft: Pick<PriceListDraft, 'rows' | 'packages'>): string | null {
  const names = new Map(draft.rows.map((row) => [row.key, row.name.trim()]));
  const index = draft.packages.findIndex((pkg) => !blankPackage(pkg) && pkg.contents.some((content) => !names.get(content.productKey)));
  if (index < 0) return null;
  return draft.packages[index]?.name.trim() || `package ${index + 1}`;
}

export function priceListForm(draft: PriceListDraft): FormData {
  const form = new FormData();
  form.append('name', draft.name.trim());
  form.append('description', draft.description.trim());
  completeRows(draft.rows).forEach((row, i) => {
    form.append(`products[${i}][name]`, row.name.trim());
    form.append(`products[${i}][description]`, row.description.trim());
    form.append(`products[${i}][price]`, row.price.trim());
    form.append(`products[${i}][kind]`, row.kind);
    if (row.kind === 'print' && row.size.trim() !== '') form.append(`products[${i}][size]`, row.size.trim());
    if (row.image) form.append(`products[${i}][exampleImage]`, row.image, row.image.name);
    else if (row.existingImagePath) form.append(`products[${i}][existingImagePath]`, row.existingImagePath);
  });
  // Two JSON fields; blank means no packages and no family discount.
  const packages = packagesPayload(draft);
  form.append('packages', packages.length === 0 ? '' : JSON.stringify(packages));
  form.append('siblingDiscount', draft.sibling.enabled ? JSON.stringify({ percent: draft.sibling.percent.trim(), maxChildren: draft.sibling.maxChildren.trim() }) : '');
  return form;
}

export const priceListsQuery = () =>
  queryOptions({
    queryKey: staffKeys.priceLists,
    queryFn: ({ signal }) => apiRequest<PriceList[]>('/api/price-lists', { auth: 'staff', signal }),
  });

export const usePriceLists = () => useQuery(priceListsQuery());

export function useSavePriceList() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, draft }: { id: number | null; draft: PriceListDraft }) =>
      apiRequest<PriceList>(id === null ? '/api/price-lists' : `/api/price-lists/${id}`, {
        method: id === null ? 'POST' : 'PUT',
        body: priceListForm(draft),
        auth: 'staff',
      }),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: staffKeys.priceLists }), client.invalidateQueries({ queryKey: staffKeys.schools })]),
  });
}

export function useDeletePriceList() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<{ message: string }>(`/api/price-lists/${id}`, { method: 'DELETE', auth: 'staff' }),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: staffKeys.priceLists }), client.invalidateQueries({ queryKey: staffKeys.schools })]),
  });
}
