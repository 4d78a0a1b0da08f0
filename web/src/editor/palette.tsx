// The palette: every plugin type of GET /api/plugins, grouped by kind. An entry is dragged onto
// the canvas, or added with its button (the keyboard's way).
import type { DragEvent } from 'react';
import type { PluginKind, PluginView } from '../types';
import { PLUGIN_DRAG_TYPE } from './canvas';

const KINDS: readonly { readonly kind: PluginKind; readonly title: string }[] = [
  { kind: 'trigger', title: 'Triggers' },
  { kind: 'processor', title: 'Processors' },
  { kind: 'terminal', title: 'Terminals' },
];

export function Palette(props: {
  readonly plugins: readonly PluginView[];
  readonly onAdd: (type: string) => void;
}) {
  const onDragStart = (event: DragEvent, type: string) => {
    event.dataTransfer.setData(PLUGIN_DRAG_TYPE, type);
    event.dataTransfer.effectAllowed = 'copy';
  };
  return (
    <nav className="palette" aria-label="Palette">
      {KINDS.map(({ kind, title }) => {
        const plugins = props.plugins.filter((plugin) => plugin.kind === kind);
        if (plugins.length === 0) return null;
        return (
          <section key={kind} aria-label={title}>
            <h3>{title}</h3>
            <ul>
              {plugins.map((plugin) => (
                <li
                  key={plugin.type}
                  className="palette-entry"
                  draggable
                  data-plugin-type={plugin.type}
                  onDragStart={(event) => {
                    onDragStart(event, plugin.type);
                  }}
                  title={plugin.description}
                >
                  <span className="palette-name">{plugin.type}</span>
                  <button
                    type="button"
                    aria-label={`Add ${plugin.type}`}
                    onClick={() => {
                      props.onAdd(plugin.type);
                    }}
                  >
                    Add
                  </button>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </nav>
  );
}
