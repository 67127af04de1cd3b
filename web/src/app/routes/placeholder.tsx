// A screen that is routed but not built yet: only its title, inside the shell.
export default function Placeholder({ title }: { title: string }) {
  return (
    <section className="page">
      <h1 className="page-title">{title}</h1>
    </section>
  );
}
