// The rich-text terms editor (tiptap's starter kit). It hands out HTML; the server keeps only
// the tags this toolbar can make, so what a partner pastes from elsewhere is cleaned there.
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';

type Mark = { label: string; short: string; active: (e: Editor) => boolean; run: (e: Editor) => void };

const TOOLS: Mark[] = [
  { label: 'Bold', short: 'B', active: (e) => e.isActive('bold'), run: (e) => e.chain().focus().toggleBold().run() },
  { label: 'Italic', short: 'I', active: (e) => e.isActive('italic'), run: (e) => e.chain().focus().toggleItalic().run() },
  { label: 'Underline', short: 'U', active: (e) => e.isActive('underline'), run: (e) => e.chain().focus().toggleUnderline().run() },
  { label: 'Heading', short: 'H', active: (e) => e.isActive('heading', { level: 3 }), run: (e) => e.chain().focus().toggleHeading({ level: 3 }).run() },
  { label: 'Bulleted list', short: '•', active: (e) => e.isActive('bulletList'), run: (e) => e.chain().focus().toggleBulletList().run() },
  { label: 'Numbered list', short: '1.', active: (e) => e.isActive('orderedList'), run: (e) => e.chain().focus().toggleOrderedList().run() },
];

function Toolbar({ editor }: { editor: Editor }) {
  const active = useEditorState({ editor, selector: ({ editor: e }) => TOOLS.map((t) => t.active(e)) });
  return (
    <div className="rich-text-toolbar" role="toolbar" aria-label="Formatting">
      {TOOLS.map((t, i) => (
        <button
          key={t.label}
          type="button"
          className="btn btn-sm btn-secondary"
          aria-label={t.label}
          aria-pressed={active[i]}
          // Keeps the caret in the text: a click would otherwise move focus to the button first.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => t.run(editor)}
        >
          {t.short}
        </button>
      ))}
    </div>
  );
}

export function TermsEditor({ id, label, value, onChange }: { id: string; label: string; value: string; onChange: (html: string) => void }) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false }, trailingNode: false })],
    content: value,
    editorProps: { attributes: { id, role: 'textbox', 'aria-multiline': 'true', 'aria-label': label, class: 'rich-text-input' } },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });
  return (
    <div className="rich-text">
      {editor && <Toolbar editor={editor} />}
      <EditorContent editor={editor} />
    </div>
  );
}
