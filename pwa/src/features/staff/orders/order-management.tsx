import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ORDER_STATUSES, ORDER_STATUS_LABELS, type OrderStatus } from '@contract/constants';
import type { Order } from '@contract/orders';
import { PWA_MSG } from '@contract/messages';
import { STAFF_MSG } from '@contract/staff-screen-messages';
import { Button } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { PageSpinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { useOrders, useUpdateOrderStatus } from '../api/orders';
import { useStaffSchools } from '../api/schools';
import { csvFileName, downloadCsv, ordersToCsv } from './csv';
import { OrderDetailDialog } from './order-detail-dialog';
import { OrderRow } from './order-row';
import { PrintBatches } from './print-batches';
import { matchesSearch, summarise } from './summary';
import { StatCardList } from '../common/stat-card-list';

export function OrderManagement() {
  const [status, setStatus] = useState('all');
  const [school, setSchool] = useState('all');
  const [search, setSearch] = useState('');
  const [viewing, setViewing] = useState<Order | null>(null);
  // The view lives in the URL, so a reload or a shared link opens the same one.
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'batches' ? 'batches' : 'orders';
  const orders = useOrders({ status, school });
  const schools = useStaffSchools();
  const update = useUpdateOrderStatus();
  // A status change that needs a second look before it is sent: an unpaid order marked delivered.
  const [asking, setAsking] = useState<{ order: Order; orderStatus: OrderStatus } | null>(null);

  const changeStatus = (order: Order, orderStatus: OrderStatus) =>
    update.mutate(
      { id: order.id, orderStatus },
      {
        onSuccess: () => toast({ title: STAFF_MSG.statusUpdatedTitle, description: STAFF_MSG.orderStatusNow(order.id, ORDER_STATUS_LABELS[orderStatus]), variant: 'success' }),
        onError: () => toast({ title: PWA_MSG.updateFailedTitle, description: STAFF_MSG.updateOrderStatusFailed, variant: 'destructive' }),
        onSettled: () => setAsking(null),
      },
    );
  const requestStatus = (order: Order, orderStatus: OrderStatus) => {
    if (orderStatus === 'delivered' && order.paymentStatus !== 'completed') setAsking({ order, orderStatus });
    else changeStatus(order, orderStatus);
  };

  const visible = useMemo(() => (orders.data ?? []).filter((order) => matchesSearch(order, search)), [orders.data, search]);
  const summary = summarise(visible);

  const exportCsv = () => {
    downloadCsv(ordersToCsv(visible), csvFileName());
    toast({ title: STAFF_MSG.exportSuccessTitle, description: STAFF_MSG.ordersExported(visible.length, csvFileName()), variant: 'success' });
  };

  const cards = [
    { label: 'Total Orders', value: summary.total },
    { label: 'Pending', value: summary.pending },
    { label: 'Processing', value: summary.processing },
    { label: 'Delivered', value: summary.delivered },
    { label: 'Revenue', value: summary.revenue },
  ];

  return (
    <div className="stack">
      <div className="row between">
        <h1>Order Management</h1>
        {view === 'orders' ? (
          <Button onClick={exportCsv} disabled={visible.length === 0}>
            Export CSV
          </Button>
        ) : null}
      </div>
      <Tabs value={view} onValueChange={(value) => setParams(value === 'batches' ? { view: value } : {}, { replace: true })}>
        <TabsList aria-label="Order management sections" className="staff-tabs">
          <TabsTrigger value="orders">Orders</TabsTrigger>
          <TabsTrigger value="batches">Print batches</TabsTrigger>
        </TabsList>
        <TabsContent value="orders" className="stack">
          <StatCardList cards={cards} label="Order summary" className="stat-cards order-summary" />
          <Card>
            <CardBody className="grid grid-3">
              <div className="field">
                <Label htmlFor="order-search">Search</Label>
                <Input id="order-search" type="search" placeholder="Customer, student, email or order number" value={search} onChange={(event) => setSearch(event.target.value)} />
              </div>
              <div className="field">
                <Label htmlFor="order-status-filter">Status</Label>
                <Select id="order-status-filter" value={status} onChange={(event) => setStatus(event.target.value)}>
                  <option value="all">All statuses</option>
                  {ORDER_STATUSES.map((value) => (
                    <option key={value} value={value}>
                      {ORDER_STATUS_LABELS[value]}
                    </option>
                  ))}
                </Select>
              </div>
              <div className="field">
                <Label htmlFor="order-school-filter">School</Label>
                <Select id="order-school-filter" value={school} onChange={(event) => setSchool(event.target.value)}>
                  <option value="all">All schools</option>
                  {schools.data?.map((option) => (
                    <option key={option.id} value={option.id}>
                      {option.name}
                    </option>
                  ))}
                </Select>
              </div>
            </CardBody>
          </Card>
          {orders.isPending ? <PageSpinner label="Loading orders..." /> : null}
          {orders.isError ? <p className="alert alert-danger">Orders could not be loaded.</p> : null}
          {orders.isSuccess && visible.length === 0 ? <p className="muted">No orders match these filters.</p> : null}
          <ul className="order-list" aria-label="Orders">
            {visible.map((order) => (
              <OrderRow
                key={order.id}
                order={order}
                busy={update.isPending && update.variables?.id === order.id}
                onView={() => setViewing(order)}
                onStatus={(orderStatus) => requestStatus(order, orderStatus)}
              />
            ))}
          </ul>
        </TabsContent>
        <TabsContent value="batches">
          <PrintBatches />
        </TabsContent>
      </Tabs>
      <OrderDetailDialog order={viewing} onClose={() => setViewing(null)} />
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => !open && !update.isPending && setAsking(null)}
        title={STAFF_MSG.unpaidDeliveredTitle}
        description={asking ? STAFF_MSG.unpaidDelivered(asking.order.id, asking.order.paymentStatus) : ''}
        confirmLabel={STAFF_MSG.unpaidDeliveredConfirm}
        cancelLabel={STAFF_MSG.keepStatus}
        confirmVariant="primary"
        busy={update.isPending}
        onConfirm={() => asking && changeStatus(asking.order, asking.orderStatus)}
      />
    </div>
  );
}
