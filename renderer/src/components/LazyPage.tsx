import { Component, Suspense, type ReactNode } from 'react';
import { ErrorNote, Loading } from './Status.tsx';

interface Props {
  /** The page's address: going to another one tries again after a failure. */
  path: string;
  children: ReactNode;
}

interface State {
  path: string;
  failed: boolean;
}

/**
 * Around a page whose code is loaded when it is first shown: a spinner meanwhile, and a note
 * instead of a blank window when it cannot load (the hub is unreachable, or was updated and no
 * longer has the old files: reloading fetches the new ones).
 */
export class LazyPage extends Component<Props, State> {
  override state: State = { path: this.props.path, failed: false };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.path === state.path ? null : { path: props.path, failed: false };
  }

  override render() {
    if (this.state.failed) return <ErrorNote error="This page could not be loaded." onRetry={() => location.reload()} />;
    return <Suspense fallback={<Loading />}>{this.props.children}</Suspense>;
  }
}
