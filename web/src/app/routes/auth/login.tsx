export default function Page() {
  return <h1>Login</h1>;
}
