export default function Page() {
  return <h1>Super Admin Login</h1>;
}
