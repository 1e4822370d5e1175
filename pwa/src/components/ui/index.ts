export { Button, buttonClass, type ButtonProps } from './button';
export { Input, Textarea } from './input';
export { Label, FieldError } from './label';
export { Select } from './select';
export { Card, CardHeader, CardBody } from './card';
export { Badge, type BadgeTone } from './badge';
export { Spinner, PageSpinner } from './spinner';
export { cx } from './cx';
