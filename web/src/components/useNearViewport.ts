import { useCallback, useEffect, useState } from 'react';

/**
 * Becomes true once the element comes within `margin` px of the viewport and stays true, so
 * work for content far down the page (its data, its pictures) waits until it is wanted.
 */
export function useNearViewport(margin: number): [(node: Element | null) => void, boolean] {
  const [node, setNode] = useState<Element | null>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (near || node === null) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: `${margin}px 0px` },
    );
    observer.observe(node);
    return () => {
      observer.disconnect();
    };
  }, [near, node, margin]);
  const ref = useCallback((element: Element | null) => {
    setNode(element);
  }, []);
  return [ref, near];
}
