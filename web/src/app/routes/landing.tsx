// / : the public landing page.
import { Link } from 'react-router';
import { ContactForm } from '@/features/contact/components/contact-form';
import { FeatureCards, Hero, SiteFooter, SiteHeader } from '@/features/landing/components/landing-sections';
import { PlanCards } from '@/features/plan-cards/components/plan-cards';

const callToAction: Record<string, string> = { standard: 'Get started', premium: 'Buy now', pro: 'Talk to sales' };

export default function LandingPage() {
  return (
    <div className="landing">
      <SiteHeader />
      <main>
        <Hero />
        <FeatureCards />
        <section className="section" id="pricing">
          <h2 className="section-title">Pricing</h2>
          <PlanCards
            action={(plan) => (
              <Link to="/signup" className="btn btn-primary btn-block">
                {callToAction[plan.id] ?? 'Buy now'}
              </Link>
            )}
          />
        </section>
        <section className="section contact-section" id="contact">
          <h2 className="section-title">Contact us</h2>
          <ContactForm />
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
