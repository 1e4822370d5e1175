/** Print batches for the lab (staff screens and the API's answers to them): user-facing texts in the product's exact words (docs/architecture.md, "One contract, shared"). Apart from route-messages.ts so a parent's first screen, which says some of those, never downloads these. */
/** Print batches for the lab: API answers, and the words of the ZIP, packing list and labels. */
export const PRINT_BATCH_MSG = {
  schoolRequired: 'Choose a school for the print batch',
  nothingReady: 'There is nothing to print for this school yet: no paid orders with prints are waiting.',
  createRace: 'Another print batch for this school was created at the same moment. Reload to see it.',
  notFound: 'Print batch not found',
  statusInvalid: 'Status must be ready_for_delivery or delivered',
  statusBackwards: (current: string, requested: string) => `This batch is already ${current}; it cannot go back to ${requested}.`,
  fileInvalid: 'File must be files.zip, packing-list.pdf or labels.pdf',
  linkInvalid: 'This download link is invalid or has expired. Download the file again from Print batches.',

  batchNumber: (id: number) => `Batch #${id}`,
  packingListTitle: 'Packing list',
  labelsTitle: 'Envelope labels',
  /** The label stock labels.pdf is laid out for (LABEL_SHEET in api/src/print-batches/labels-pdf.ts). */
  labelStock: 'A4 sheet of 14 labels, 2 × 7, 99.1 × 38.1 mm (Avery L7163 or equivalent)',
  labelStockNote: (stock: string) => `Labels print on an ${stock}; each label is outlined, so plain paper can be cut instead.`,
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  batchTotals: (orders: number, prints: number) => `${orders} order(s) · ${prints} print(s)`,
  classHeading: (name: string, orders: number) => `${name} · ${orders} order(s)`,
  classContinued: (name: string) => `${name} (continued)`,
  columns: { packed: 'Packed', student: 'Student', parent: 'Parent', order: 'Order', items: 'Items' },
  receivedBy: 'Received by (class teacher): ______________________   Date: ____________',
  noClass: 'No class',
  orderNumber: (id: string) => `Order #${id}`,
  moreItems: (count: number) => `+${count} more (see the packing list)`,
  missingTitle: 'Originals missing from storage',
  missingIntro:
    'These print lines have no original file in storage, so they are not in this ZIP. Restore the photos in Photo Recovery, then download the batch again.',
  orderSheetColumns: ['Order Number', 'School', 'Class', 'Student', 'Product', 'Quantity', 'File', 'Original Number', 'Original Name'],
  /** Lines a batch does not print (docs/access.md, "Prints follow the rules"). */
  leftOutTitle: (count: number) => (count === 1 ? '1 print left out' : `${count} prints left out`),
  leftOutIntro: 'These lines are not in the ZIP, the packing list or the labels. Check each order and refund the line in the PayGate back office.',
  leftOutReasons: {
    erased: 'Photo removed (erased or deleted)',
    do_not_publish: 'Child marked do not publish',
    not_the_child: 'Photo no longer belongs to the ordering child',
  },
} as const;
