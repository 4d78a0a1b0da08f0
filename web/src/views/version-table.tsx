// The saved versions of a workflow as a table, newest first, with an optional last column.
import type { ReactNode } from 'react';
import { Time } from '../components';
import type { VersionView } from '../types';

export function VersionTable(props: {
  readonly versions: readonly VersionView[];
  /** The last column and its header: a column without a header's words is nameless to a reader. */
  readonly extra?: {
    readonly header: string;
    readonly cell: (version: VersionView) => ReactNode;
  };
}) {
  const { extra } = props;
  return (
    <table>
      <thead>
        <tr>
          <th>Version</th>
          <th>Saved</th>
          <th>Author</th>
          <th>Note</th>
          {extra !== undefined && <th>{extra.header}</th>}
        </tr>
      </thead>
      <tbody>
        {props.versions.map((version) => (
          <tr key={version.version}>
            <td>
              {version.version}
              {version.current && <span className="chip">current</span>}
            </td>
            <td>
              <Time value={version.createdAt} />
            </td>
            <td>{version.author}</td>
            <td>{version.note ?? ''}</td>
            {extra !== undefined && <td>{extra.cell(version)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
