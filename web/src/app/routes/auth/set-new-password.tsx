export default function Page() {
  return <h1>Set new password</h1>;
}
