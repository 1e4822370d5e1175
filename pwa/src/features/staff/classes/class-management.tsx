import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { MATCHING_MSG, REVIEW_MSG } from '@contract/messages';
import { STAFF_MESSAGES_SCREEN_MSG, STAFF_MSG, STAFF_SMALL_MSG } from '@contract/staff-screen-messages';
import { byName } from '@contract/format';
import { useSession } from '../../../lib/session';
import type { AlbumSummary } from '@contract/schools';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { PageSpinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { useDeleteClass } from '../api/albums';
import { useStaffSchool } from '../api/schools';
import { useConfirmDelete } from '../use-confirm-delete';
import { ClassFormDialog } from './class-form-dialog';
import { ClassPhotos } from './class-photos';
import { RosterPanel } from './roster-panel';
import { TrayPanel } from './tray-panel';
import { AccessModeControl } from './access-mode-control';
import { ClassPublishing, classStatus } from './class-publishing';
import { ReviewSheet } from './review-sheet';
import { Badge } from '../../../components/ui/badge';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';

export function ClassManagement({ schoolId }: { schoolId: number }) {
  const school = useStaffSchool(schoolId);
  const remove = useDeleteClass();
  // Deleting a class is an admin's (docs/accounts.md, "What a photographer may not do").
  const isAdmin = useSession().staffUser?.role === 'admin';
  // ?class={id}&tab=tray opens a class on its tray (the upload screen links there after matching).
  const [search] = useSearchParams();
  const [selectedId, setSelectedId] = useState<number | null>(Number(search.get('class')) || null);
  const askedTab = Number(search.get('class')) === selectedId ? search.get('tab') : null;
  const [editing, setEditing] = useState<AlbumSummary | 'new' | null>(null);
  // The class chosen is the one shown: its name heads the panel, and choosing one brings it into view
  // (on a tablet held upright the list sits above the panel, with every class's status on it).
  const detailHeading = useRef<HTMLHeadingElement>(null);
  const [focusDetail, setFocusDetail] = useState(false);
  useEffect(() => {
    if (!focusDetail || !detailHeading.current) return;
    detailHeading.current.focus();
    detailHeading.current.scrollIntoView({ block: 'start' });
    setFocusDetail(false);
  }, [focusDetail, selectedId]);
  const choose = (id: number) => {
    setSelectedId(id);
    setFocusDetail(true);
  };
  const deletion = useConfirmDelete<AlbumSummary, unknown>(
    remove,
    {
      title: STAFF_MSG.deleteClassQuestion,
      description: (album) => STAFF_MSG.deleteClassWarning(album?.name ?? null),
      confirmLabel: STAFF_MSG.deleteClass,
      deletedTitle: STAFF_MSG.classDeletedTitle,
      deleted: (album) => STAFF_MSG.deleted(album.name),
      failed: (err) => errorMessage(err, STAFF_MSG.deleteClassFailed),
    },
    (album) => {
      if (selectedId === album.id) setSelectedId(null);
      void school.refetch();
    },
  );

  if (school.isPending) return <PageSpinner label="Loading classes..." />;
  if (school.isError) return <p className="alert alert-danger">{errorMessage(school.error, 'This school could not be loaded.')}</p>;
  const albums = [...school.data.albums].sort(byName);
  const selected = albums.find((album) => album.id === selectedId) ?? null;
  // ?tab=tray or ?tab=review opens that tab; otherwise a draft opens on its review sheet, a published class on its photos.
  const openTab = askedTab === 'tray' || askedTab === 'review' ? askedTab : selected?.status === 'draft' ? 'review' : 'photos';

  return (
    <div className="stack">
      <div className="row between">
        <div>
          <h1>{school.data.name}: Classes</h1>
          <Link to={paths.staffDashboard}>Back to Dashboard</Link>
        </div>
        <AccessModeControl school={school.data} />
        <div className="row">
          <Link to={paths.school(school.data.slug)} className={buttonClass('outline')}>
            View Gallery
          </Link>
          <Link to={paths.staffMessages(schoolId)} className={buttonClass('outline')}>
            {STAFF_MESSAGES_SCREEN_MSG.openLink}
          </Link>
          <Button onClick={() => setEditing('new')}>Create Class</Button>
        </div>
      </div>
      <div className="classes-layout">
        <Card>
          <CardBody>
            <h2 id="class-list-heading">Classes</h2>
            {albums.length === 0 ? <p className="muted">No classes yet.</p> : null}
            <ul className="class-list" aria-labelledby="class-list-heading">
              {albums.map((album) => (
                <li key={album.id} className={album.id === selectedId ? 'class-item active' : 'class-item'}>
                  <button type="button" className="class-select" aria-pressed={album.id === selectedId} onClick={() => choose(album.id)}>
                    <strong>{album.name}</strong>
                    <span className="muted">
                      {album.photoCount} photos{album.hasPassword ? ' · password' : ''}
                    </span>
                    <ClassStatusLine album={album} />
                  </button>
                  <div className="row">
                    <Button variant="ghost" size="sm" onClick={() => setEditing(album)} aria-label={`Edit ${album.name}`}>
                      Edit
                    </Button>
                    {isAdmin ? (
                      <Button variant="ghost" size="sm" onClick={() => deletion.ask(album)} aria-label={`Delete ${album.name}`}>
                        Delete
                      </Button>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
          </CardBody>
        </Card>
        <Card>
          <CardBody>
            {selected ? (
              <section key={selected.id} className="class-detail" aria-labelledby={`class-detail-${selected.id}`}>
                <h2 id={`class-detail-${selected.id}`} ref={detailHeading} tabIndex={-1} className="class-detail-heading">
                  {selected.name}
                </h2>
                <div className="row class-upload">
                  <Link to={`${paths.staffDashboard}?${new URLSearchParams({ tab: 'upload', school: String(schoolId), class: String(selected.id) }).toString()}`} className={buttonClass('outline', 'btn-sm')}>
                    {STAFF_SMALL_MSG.uploadToClass}
                  </Link>
                </div>
                <ClassPublishing key={selected.id} album={selected} />
                <Tabs key={selected.id} defaultValue={openTab}>
                  <TabsList aria-label={`${selected.name} sections`} className="staff-tabs class-tabs">
                    <TabsTrigger value="review">{REVIEW_MSG.reviewTab}</TabsTrigger>
                    <TabsTrigger value="photos">Photos</TabsTrigger>
                    <TabsTrigger value="students">Students</TabsTrigger>
                    <TabsTrigger value="tray">{MATCHING_MSG.trayTitle}</TabsTrigger>
                  </TabsList>
                  <TabsContent value="review">
                    <ReviewSheet album={selected} />
                  </TabsContent>
                  <TabsContent value="tray">
                    <TrayPanel album={selected} />
                  </TabsContent>
                  <TabsContent value="photos">
                    <ClassPhotos album={selected} />
                  </TabsContent>
                  <TabsContent value="students">
                    <RosterPanel album={selected} />
                  </TabsContent>
                </Tabs>
              </section>
            ) : (
              <p className="muted">Select a class to see its photos and students.</p>
            )}
          </CardBody>
        </Card>
      </div>
      <ClassFormDialog
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        schoolId={schoolId}
        album={editing === 'new' ? null : editing}
        codesSchool={school.data.accessMode === 'student_codes'}
        onSaved={(id) => {
          setSelectedId(id);
          void school.refetch();
        }}
      />
      {deletion.dialog}
    </div>
  );
}

/** The class list's line of status: Draft, Published or "Publishes ...", and how many photos wait for review. */
function ClassStatusLine({ album }: { album: AlbumSummary }) {
  const status = classStatus(album);
  const pending = album.pendingReview ?? 0;
  return (
    <span className="row class-status">
      <Badge tone={status.tone}>{status.label}</Badge>
      {pending > 0 ? <Badge tone="yellow">{REVIEW_MSG.pendingCount(pending)}</Badge> : null}
    </span>
  );
}
