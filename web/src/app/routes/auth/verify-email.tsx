export default function Page() {
  return <h1>Updating Status</h1>;
}
