import { Empty } from '../components/Status.tsx';
import { Link } from '../router.tsx';

export function NotFoundPage() {
  return (
    <Empty heading title="There is nothing at this address.">
      <Link to="/">Go to your stream</Link>
    </Empty>
  );
}
