export default function Page() {
  return <h1>Plans</h1>;
}
