/**
 * Roster import: paste the class list or choose a CSV file (name, optional student number,
 * optional guardian e-mail and mobile number; a header row is optional), preview every row with its problem, then
 * import all of them at once. Nothing is imported while any row has a problem.
 */
import { STAFF_MSG } from '@contract/staff-screen-messages';
import { useState, type ChangeEvent } from 'react';
import type { RosterPreview } from '@contract/students';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Textarea } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { previewRoster, useImportRoster } from '../api/students';
import { displayPhone } from './student-fields';

export function RosterImportDialog({ albumId, albumName, open, onOpenChange }: { albumId: number; albumName: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [csv, setCsv] = useState('');
  const [preview, setPreview] = useState<RosterPreview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const importRoster = useImportRoster(albumId);

  const reset = () => {
    setCsv('');
    setPreview(null);
    setProblem(null);
  };

  const change = (value: string) => {
    setCsv(value);
    setPreview(null);
    setProblem(null);
  };

  const chooseFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) change(await file.text());
    event.target.value = '';
  };

  const check = async () => {
    setChecking(true);
    try {
      setPreview(await previewRoster(albumId, csv));
      setProblem(null);
    } catch (err) {
      setPreview(null);
      setProblem(errorMessage(err, STAFF_MSG.rosterCheckFailed));
    } finally {
      setChecking(false);
    }
  };

  const save = () =>
    importRoster.mutate(csv, {
      onSuccess: (result) => {
        toast({ title: STAFF_MSG.rosterImportedTitle, description: STAFF_MSG.rosterImported(result.students.length, albumName), variant: 'success' });
        reset();
        onOpenChange(false);
      },
      onError: (err) => toast({ title: STAFF_MSG.importFailedTitle, description: errorMessage(err, STAFF_MSG.rosterImportFailed), variant: 'destructive' }),
    });

  const badRows = preview?.rows.filter((row) => row.error !== null).length ?? 0;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) reset();
        onOpenChange(next);
      }}
      title={`Import roster: ${albumName}`}
      description="One student per line: name, then optional student number, guardian e-mail and guardian mobile number (for the code by SMS). A header row is optional."
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button variant="outline" onClick={() => void check()} disabled={csv.trim() === '' || checking}>
            {checking ? 'Checking...' : 'Preview'}
          </Button>
          <Button onClick={save} disabled={!preview?.valid || importRoster.isPending}>
            {importRoster.isPending ? 'Importing...' : preview?.valid ? `Import ${preview.rows.length} Students` : 'Import Students'}
          </Button>
        </>
      }
    >
      <div className="stack">
        <div className="field">
          <Label htmlFor="roster-csv">Paste the class list (CSV)</Label>
          <Textarea id="roster-csv" rows={6} value={csv} onChange={(event) => change(event.target.value)} placeholder={'Name,Student number,Guardian email,Guardian phone\nKagiso Dube,1001,parent@example.com,71 234 567'} />
        </div>
        <div className="field">
          <Label htmlFor="roster-file">Or choose a CSV file</Label>
          <input id="roster-file" type="file" accept=".csv,text/csv,text/plain" onChange={(event) => void chooseFile(event)} />
        </div>
        {problem ? (
          <p className="alert alert-danger" role="alert">
            {problem}
          </p>
        ) : null}
        {preview ? (
          <>
            <p className={preview.valid ? 'alert alert-success' : 'alert alert-danger'} role="status">
              {preview.valid ? `${preview.rows.length} student(s) ready to import.` : `${badRows} row(s) have problems. Fix them above and preview again: nothing is imported until every row is right.`}
            </p>
            <div className="table-wrap">
              <table className="staff-table" aria-label="Roster preview">
                <thead>
                  <tr>
                    <th scope="col">Line</th>
                    <th scope="col">Name</th>
                    <th scope="col">Number</th>
                    <th scope="col">Guardian e-mail</th>
                    <th scope="col">Guardian phone</th>
                    <th scope="col">Problem</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.rows.map((row) => (
                    <tr key={row.row} className={row.error ? 'row-error' : undefined}>
                      <td>{row.row}</td>
                      <td>{row.name}</td>
                      <td>{row.number ?? ''}</td>
                      <td>{row.guardianEmail ?? ''}</td>
                      <td className="roster-phone">{row.guardianPhone ? displayPhone(row.guardianPhone) : ''}</td>
                      <td>{row.error ?? 'OK'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        ) : null}
      </div>
    </Dialog>
  );
}
