import type { RenderElementProps, RenderLeafProps } from 'slate-react';

/** Renders one element of the blocks format. */
export function BlockElementView({ attributes, children, element }: RenderElementProps) {
  switch (element.type) {
    case 'heading': {
      const Tag = (['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const)[element.level - 1] ?? 'h2';
      return (
        <Tag {...attributes} className="blk-heading">
          {children}
        </Tag>
      );
    }
    case 'quote':
      return <blockquote {...attributes}>{children}</blockquote>;
    case 'code':
      return (
        <pre {...attributes}>
          <code>{children}</code>
        </pre>
      );
    case 'list':
      return element.format === 'ordered' ? <ol {...attributes}>{children}</ol> : <ul {...attributes}>{children}</ul>;
    case 'list-item':
      return <li {...attributes}>{children}</li>;
    case 'link':
      return (
        <a {...attributes} href={element.url} title={element.url} rel="noreferrer">
          {children}
        </a>
      );
    case 'image':
      return (
        <div {...attributes} className="blk-image">
          <div contentEditable={false}>
            <img src={element.image.url} alt={element.image.alternativeText ?? element.image.name ?? ''} />
          </div>
          {children}
        </div>
      );
    case 'paragraph':
      return <p {...attributes}>{children}</p>;
  }
}

/** Renders a text leaf with its marks. */
export function BlockLeafView({ attributes, children, leaf }: RenderLeafProps) {
  let content = children;
  if (leaf.code) content = <code>{content}</code>;
  if (leaf.bold) content = <strong>{content}</strong>;
  if (leaf.italic) content = <em>{content}</em>;
  if (leaf.underline) content = <u>{content}</u>;
  if (leaf.strikethrough) content = <s>{content}</s>;
  return <span {...attributes}>{content}</span>;
}
