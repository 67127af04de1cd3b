import { Link } from 'react-router';

export default function NotFound() {
  return (
    <div className="page-center">
      <h1>Page not found</h1>
      <Link to="/">Go to home</Link>
    </div>
  );
}
