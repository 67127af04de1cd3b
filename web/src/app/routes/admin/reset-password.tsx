export default function Page() {
  return <h1>Reset Password</h1>;
}
