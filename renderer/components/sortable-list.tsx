import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent, type UniqueIdentifier } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import type { ReactNode } from 'react';

/** Props of a reorderable list. */
export interface SortableListProps<T> {
  readonly items: readonly T[];
  readonly getKey: (item: T) => string;
  /** Words for an item in announcements and the handle's label. */
  readonly getLabel: (item: T) => string;
  readonly onMove: (from: number, to: number) => void;
  readonly renderItem: (item: T, index: number, handle: ReactNode) => ReactNode;
  readonly label: string;
  readonly className?: string;
}

function SortableItem({ id, label, children }: { readonly id: string; readonly label: string; readonly children: (handle: ReactNode) => ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  const handle = (
    <button type="button" ref={setActivatorNodeRef} className="drag-handle" {...attributes} {...listeners} aria-label={`Reorder ${label}`} data-testid="drag-handle">
      <span aria-hidden="true">⋮⋮</span>
    </button>
  );
  return (
    <li ref={setNodeRef} className={isDragging ? 'sortable-item dragging' : 'sortable-item'} style={{ transform: transform ? `translate3d(${Math.round(transform.x)}px, ${Math.round(transform.y)}px, 0)` : undefined, transition }}>
      {children(handle)}
    </li>
  );
}

/** A list reordered by dragging a handle with the mouse, or with the keyboard (Space, arrows, Space). */
export function SortableList<T>({ items, getKey, getLabel, onMove, renderItem, label, className }: SortableListProps<T>) {
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const keys = items.map(getKey);
  const labelOf = (id: UniqueIdentifier) => {
    const item = items[keys.indexOf(String(id))];
    return item === undefined ? String(id) : getLabel(item);
  };
  const position = (id: UniqueIdentifier | undefined) => (id === undefined ? 0 : keys.indexOf(String(id)) + 1);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = keys.indexOf(String(active.id));
    const to = keys.indexOf(String(over.id));
    if (from >= 0 && to >= 0) onMove(from, to);
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        screenReaderInstructions: { draggable: 'To reorder, press Space or Enter, move with the arrow keys, then press Space or Enter again to drop, or Escape to cancel.' },
        announcements: {
          onDragStart: ({ active }) => `Picked up ${labelOf(active.id)}.`,
          onDragOver: ({ active, over }) => (over ? `${labelOf(active.id)} is over position ${position(over.id)} of ${keys.length}.` : `${labelOf(active.id)} is no longer over the list.`),
          onDragEnd: ({ active, over }) => (over ? `${labelOf(active.id)} dropped at position ${position(over.id)} of ${keys.length}.` : `${labelOf(active.id)} dropped.`),
          onDragCancel: ({ active }) => `Reordering cancelled. ${labelOf(active.id)} is back in place.`,
        },
      }}
    >
      <SortableContext items={keys} strategy={verticalListSortingStrategy}>
        <ul className={className ?? 'sortable-list'} aria-label={label}>
          {items.map((item, index) => (
            <SortableItem key={keys[index]} id={keys[index] ?? String(index)} label={getLabel(item)}>
              {(handle) => renderItem(item, index, handle)}
            </SortableItem>
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}

/** A copy of `list` with the item at `from` moved to `to`. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item === undefined) return next;
  next.splice(to, 0, item);
  return next;
}
