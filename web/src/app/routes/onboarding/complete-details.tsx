export default function Page() {
  return <h1>Signup for whitelabel</h1>;
}
