export default function Page() {
  return <h1>Reset password</h1>;
}
